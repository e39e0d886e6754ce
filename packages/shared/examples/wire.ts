import { LineUpProtocolError } from '@lineup/shared';
import {
  answerRefusedMiniAppMessage,
  parseMiniAppMessageFromFrame,
  parseSurfaceMessageFromFrame,
} from '@lineup/shared/bridge';
import { parseEnvelope, readEnvelopeText, wireIssues } from '@lineup/shared/protocol';

// Agent → client: validate the envelope and its payload; unknown types are never executed.
const parsed = parseEnvelope(
  {
    v: 1,
    id: 'msg_ui_02',
    type: 'lineup.v1.ui.patch',
    conversation_id: 'conv_01',
    sender: { kind: 'agent', id: 'agent_hermes_main' },
    payload: { instance_id: 'weather.dashboard.01', state: { city: '上海', temperature: 28 } },
  },
  { direction: 'agent_to_client' },
);
if (parsed.kind === 'message') console.log(parsed.message.type); // 'lineup.v1.ui.patch'

const unknown = parseEnvelope({
  v: 1,
  id: 'msg_x',
  type: 'lineup.v1.ui.frobnicate',
  conversation_id: 'conv_01',
  sender: { kind: 'agent', id: 'agent_hermes_main' },
  payload: {},
});
console.log(unknown.kind); // 'unsupported': answer with lineup.v1.unsupported, execute nothing

// The text a transport received, never throwing: a refused frame comes with what could be read of its header, so
// it is answered by id (a call: with its own result), and its issues go on the wire bounded, naming no value.
const refused = readEnvelopeText(
  '{"v":1,"id":"msg_9","type":"lineup.v1.tool.call","conversation_id":"conv_01",' +
    '"sender":{"kind":"agent","id":"agent_hermes_main"},"payload":{"call_id":"call_9","tool":"pomodoro.start","arguments":{}}}',
  { direction: 'agent_to_client' },
);
if (refused.kind === 'invalid')
  console.log(refused.header.call_id, wireIssues(refused.error.issues)[0]?.path); // 'call_9' 'payload.inventory_revision'

// Surface iframe → host (after checking event.source is that frame's window).
const event = parseSurfaceMessageFromFrame(
  {
    namespace: 'lineup.surface.v1',
    type: 'event',
    instance_id: 'weather.dashboard.01',
    event: 'refresh',
    data: { unit: 'c' },
  },
  'weather.dashboard.01',
);
console.log(event.type); // 'event'

// MiniApp page → runtime: the runtime judges every message of the page, and answers a refused write or UI action
// with where the problem is (the page ships no copy of the rules).
const write = {
  namespace: 'lineup.miniapp.v1',
  type: 'session_data_write',
  instance_id: 'pomodoro.1',
  request_id: 'r1',
  key: '1st',
  value: true,
};
try {
  parseMiniAppMessageFromFrame(write, 'pomodoro.1');
} catch (error) {
  if (!(error instanceof LineUpProtocolError)) throw error;
  const answer = answerRefusedMiniAppMessage(write, 'pomodoro.1', error);
  if (answer?.kind === 'request' && answer.message.status === 'error')
    console.log(answer.message.error.code, answer.message.error.issues); // 'protocol_invalid' [{ path: 'key', code: 'invalid_value' }]
}
