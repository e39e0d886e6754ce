/**
 * The agent seen from the client: the inventory rule. A tool is called only when the latest inventory of the
 * conversation lists it, with that inventory's revision; documents, Surfaces and streams need none.
 */
import { describe, expect, it } from 'vitest';
import { withInventory } from '../test/agent.js';
import { CONVERSATION, createHarness, ofType, texts, types } from '../test/harness.js';
import { POMODORO_INVENTORY_TOOLS } from '../test/pomodoro.js';
import { REPLIES } from './conversation/replies.js';

describe('the inventory', () => {
  it.each([
    ['start a 20 minute focus', 'en'],
    ['专注 25 分钟', 'zh'],
    ['stop', 'en'],
    ['停止计时', 'zh'],
  ] as const)('without one, %s calls no tool and says why', (phrase, language) => {
    const harness = createHarness();
    harness.say(phrase);
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message']);
    expect(texts(sent)).toEqual([REPLIES[language].noInventory()]);
  });

  it('an inventory of another conversation does not count', () => {
    const harness = createHarness();
    harness.inventory('inv-1', POMODORO_INVENTORY_TOOLS, 'conv_other');
    harness.say('start a 20 minute focus');
    expect(types(harness.take())).toEqual(['chat.agent_message']);
  });

  it('without the tool in the latest inventory, no call is sent', () => {
    const harness = withInventory();
    harness.inventory('inv-2', []);
    harness.say('start a 20 minute focus');
    harness.say('stop');
    const sent = harness.take();
    expect(types(sent)).toEqual(['chat.agent_message', 'chat.agent_message']);
    expect(texts(sent)).toEqual([
      REPLIES.en.toolMissing('pomodoro.start'),
      REPLIES.en.toolMissing('pomodoro.interrupt'),
    ]);
  });

  it('every call carries the revision of the latest inventory of its conversation', () => {
    const harness = withInventory();
    harness.say('start a 20 minute focus');
    harness.inventory('inv-2');
    harness.say('stop');
    harness.inventory('inv-9', POMODORO_INVENTORY_TOOLS, 'conv_other');
    harness.say('start a 5 minute focus', 'conv_other');
    harness.say('stop');
    const calls = ofType(harness.take(), 'lineup.v1.tool.call').map((call) => [
      call.conversation_id,
      call.payload.tool,
      call.payload.inventory_revision,
    ]);
    expect(calls).toEqual([
      [CONVERSATION, 'pomodoro.start', 'inv-1'],
      [CONVERSATION, 'pomodoro.interrupt', 'inv-2'],
      ['conv_other', 'pomodoro.start', 'inv-9'],
      [CONVERSATION, 'pomodoro.interrupt', 'inv-2'],
    ]);
  });

  it('documents, Surfaces and streams need no inventory', () => {
    const harness = createHarness();
    harness.say('compound interest');
    harness.say('open a weather surface');
    harness.say('stream an interface');
    expect(types(harness.take()).filter((type) => type !== 'chat.agent_message')).toEqual([
      'ui.document',
      'ui.open',
      ...Array(5).fill('ui.checkpoint'),
    ]);
  });
});
