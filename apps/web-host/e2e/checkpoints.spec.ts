import { advanceUIStream, startUIStream, type UIStreamState } from '@lineup/shared';
import streamInitial from '@lineup/shared/fixtures/stream-initial.json' with { type: 'json' };
import streamMutations from '@lineup/shared/fixtures/stream-mutations.json' with { type: 'json' };
import { expect, shownConversation, test } from './fixtures.ts';

/**
 * A component stream sent as lineup.v1.ui.checkpoint messages, in Chromium: frames out of order, a gap, a
 * stale frame and a conflicting duplicate; the host keeps one receiver per (sourceCallId, uiId).
 */
function frames(): UIStreamState[] {
  const states = [startUIStream(streamInitial, 'call_stream_e2e', 1)];
  for (const mutation of streamMutations) states.push(advanceUIStream(states.at(-1)!, mutation));
  states.push(advanceUIStream(states.at(-1)!, { type: 'complete' }));
  return states;
}

test('checkpoint messages build one streamed interface; stale and conflicting frames never overwrite it', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByText('Agent: connected (demo agent)')).toBeVisible();
  const all = frames();
  const conversation = await shownConversation(page);
  const deliver = async (checkpoint: unknown) => {
    await page.getByLabel('Document or lineup.v1 message (JSON)').fill(
      JSON.stringify({
        v: 1,
        id: `msg_${Math.random().toString(36).slice(2)}`,
        type: 'lineup.v1.ui.checkpoint',
        conversation_id: conversation,
        sender: { kind: 'agent', id: 'agent_e2e' },
        payload: { checkpoint },
      }),
    );
    await page.getByRole('button', { name: 'Deliver' }).click();
  };
  const stream = page.locator('.lu-stream');

  await deliver(all[0]!.checkpoint);
  await expect(stream.getByText('Computing the projection')).toBeVisible();
  await expect(stream.getByText('Generating…')).toBeVisible();

  // A gap: seq 3 before seq 2 is fine, every frame is a full snapshot.
  await deliver(all[2]!.checkpoint);
  await expect(stream.getByRole('group', { name: 'Projected balance' })).toBeVisible();
  // The older seq 2 arrives late: ignored, the view stays on seq 3.
  await deliver(all[1]!.checkpoint);
  await expect(stream.getByRole('group', { name: 'Projected balance' })).toBeVisible();
  // Seq 3 again with other content: a conflict, refused.
  const conflicting = structuredClone(all[2]!.checkpoint) as { snapshot: { title: string } };
  conflicting.snapshot.title = 'Forged';
  await deliver(conflicting);
  await expect(page.locator('.host__note--refused').last()).toContainText(
    'Refused a stream frame at payload.checkpoint.seq',
  );
  // The agent is told, by the frame's id, where: the seq it reused.
  await expect(page.locator('.host__note').last()).toContainText(
    '"reason":"invalid_message","issues":[{"path":"payload.checkpoint.seq","code":"duplicate_id"',
  );
  await expect(stream.getByRole('heading', { name: 'Savings projection' })).toBeVisible();

  await deliver(all[3]!.checkpoint);
  await deliver(all[4]!.checkpoint);
  await expect(stream.getByText('Computing the projection')).toHaveCount(0);
  await expect(stream.getByText('Generating…')).toHaveCount(0);
  await expect(stream.locator('.lu-result-value')).toContainText('16,288.95');
  await expect(page.locator('.lu-stream')).toHaveCount(1);
});
