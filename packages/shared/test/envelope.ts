/**
 * The `lineup.v1` envelope's test messages (`protocol/envelope.*.test.ts`, seed 000 §3–§5): the seed's own
 * examples, each completed with an envelope header from the right sender, and a valid message to change.
 */
import { LINEUP_MESSAGE_TYPES } from '../src/protocol/envelope-schemas.js';
import { clone } from './utils.js';

// biome-ignore lint/suspicious/noExplicitAny: rows build and mutate arbitrary (often invalid) JSON on purpose.
export type J = any;

const DIGEST = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

/**
 * seed 000 §4.1, verbatim except the integrity placeholder `sha256-BASE64_DIGEST` (see
 * envelope.seed-examples.test.ts).
 */
export const SEED_UI_OPEN = {
  v: 1,
  id: 'msg_ui_01',
  type: 'lineup.v1.ui.open',
  conversation_id: 'conv_01',
  sender: { kind: 'agent', id: 'agent_hermes_main' },
  payload: {
    instance_id: 'weather.dashboard.01',
    app: {
      id: 'com.lineup.weather.dashboard',
      name: '天气面板',
      version: '1.0.0',
      integrity: DIGEST,
      html: "<main><button id='refresh'>刷新</button></main>",
      css: 'main { padding: 16px }',
      js: "document.querySelector('#refresh').onclick=()=>LineUpSurface.event('refresh',{unit:'c'})",
    },
    state: { city: '北京', temperature: 22 },
  },
};

/**
 * The seed's other examples show only `type` and `payload` ("所有消息均使用既有 lineup.v1 信封"); they are
 * completed with an envelope header from the right sender, and their type and payload kept verbatim.
 */
export const SEED_SHORT: Record<string, { type: string; payload: unknown }> = {
  '§4.2 ui.event': {
    type: 'lineup.v1.ui.event',
    payload: { instance_id: 'weather.dashboard.01', event: 'refresh', data: { unit: 'c' } },
  },
  '§4.3 ui.patch': {
    type: 'lineup.v1.ui.patch',
    payload: { instance_id: 'weather.dashboard.01', state: { city: '上海', temperature: 28 } },
  },
  '§4.3 ui.close': {
    type: 'lineup.v1.ui.close',
    payload: { instance_id: 'weather.dashboard.01', reason: 'completed' },
  },
  '§5.1 client.inventory': {
    type: 'lineup.v1.client.inventory',
    payload: {
      revision: 'catalog-42',
      standard_components: [
        { id: 'choice', version: '1' },
        { id: 'confirm', version: '1' },
        { id: 'input', version: '1' },
      ],
      applications: [
        {
          id: 'com.lineup.svg-canvas',
          version: '1.0.0',
          surfaces: [{ id: 'canvas', events: ['draw', 'resize', 'snapshot'] }],
        },
      ],
      capabilities: [{ name: 'artifact.save', version: '1.0', risk: 'user_confirmation' }],
    },
  },
  '§5.2 app.list': {
    type: 'lineup.v1.app.list',
    payload: {
      capabilities: [
        {
          name: 'app.open_url',
          version: '1.0',
          risk: 'user_confirmation',
          input_schema: { type: 'object', required: ['url'] },
        },
        {
          name: 'clipboard.write',
          version: '1.0',
          risk: 'user_confirmation',
          input_schema: { type: 'object', required: ['text'] },
        },
        {
          name: 'device.pick_file',
          version: '1.0',
          risk: 'system_permission',
          input_schema: { type: 'object' },
        },
      ],
    },
  },
  '§5.3 app.call': {
    type: 'lineup.v1.app.call',
    payload: {
      call_id: 'call_open_docs_01',
      capability: 'app.open_url',
      reason: '打开部署文档供你核对',
      expires_at: '2026-08-02T12:10:00Z',
      arguments: { url: 'https://example.com/docs' },
    },
  },
  '§5.3 app.result': {
    type: 'lineup.v1.app.result',
    payload: { call_id: 'call_open_docs_01', status: 'completed', result: { opened: true } },
  },
};

export function wrap(type: string, payload: unknown): J {
  const fromAgent =
    LINEUP_MESSAGE_TYPES[type as keyof typeof LINEUP_MESSAGE_TYPES]?.direction !== 'client_to_agent';
  return {
    v: 1,
    id: 'msg_01',
    type,
    conversation_id: 'conv_01',
    sender: fromAgent ? { kind: 'agent', id: 'agent_hermes_main' } : { kind: 'client', id: 'web-host' },
    payload: clone(payload),
  };
}
export const base = (): J => wrap('lineup.v1.ui.event', SEED_SHORT['§4.2 ui.event']!.payload);
export const withChange = (change: (envelope: J) => void) => () => {
  const envelope = base();
  change(envelope);
  return envelope;
};
