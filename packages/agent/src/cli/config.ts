/** Reading `lineup-agent`'s command line and environment. Throws `UsageError` with a message for the person. */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Mode = 'scripted' | 'llm';

export interface LLMConfig {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
}

export type Command =
  | {
      readonly command: 'serve';
      readonly store: string;
      readonly port: number;
      readonly host: string;
      readonly path: string;
      readonly mode: Mode;
      readonly llm?: LLMConfig;
    }
  | {
      readonly command: 'token-issue';
      readonly store: string;
      readonly deviceId: string;
      readonly label: string;
    }
  | { readonly command: 'token-revoke'; readonly store: string; readonly deviceId: string }
  | { readonly command: 'devices'; readonly store: string }
  | { readonly command: 'help' }
  | { readonly command: 'version' };

export const DEFAULT_STORE = 'lineup-agent-data';

export const USAGE = `Usage:
  lineup-agent serve [--port 8787] [--host 127.0.0.1] [--path /agent] [--store <folder | postgres://…>] [--mode scripted|llm]
  lineup-agent token issue <device-id> [--label <text>] [--store …]
  lineup-agent token revoke <device-id> [--store …]
  lineup-agent devices [--store …]

The store is a folder for the embedded database (default ./${DEFAULT_STORE}, made when missing) or a PostgreSQL URL.
Environment: LINEUP_AGENT_STORE, LINEUP_AGENT_MODE, PORT, HOST; llm mode: OPENAI_MODEL (required),
OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_API_KEY.`;

type Env = Readonly<Record<string, string | undefined>>;

const FLAGS: Readonly<Record<string, readonly string[]>> = {
  serve: ['port', 'host', 'path', 'store', 'mode'],
  'token-issue': ['store', 'label'],
  'token-revoke': ['store'],
  devices: ['store'],
};

export function readCommand(argv: readonly string[], env: Env): Command {
  const args = argv.filter((arg) => arg !== '--');
  const first = args[0];
  if (first === undefined || first === 'help' || first === '--help' || first === '-h')
    return { command: 'help' };
  if (first === '--version' || first === 'version') return { command: 'version' };
  let name: string;
  let rest: string[];
  if (first === 'token') {
    const sub = args[1];
    if (sub !== 'issue' && sub !== 'revoke')
      throw new UsageError(`"lineup-agent token" takes issue or revoke, not ${JSON.stringify(sub ?? '')}.`);
    name = `token-${sub}`;
    rest = args.slice(2);
  } else if (first === 'serve' || first === 'devices') {
    name = first;
    rest = args.slice(1);
  } else throw new UsageError(`Unknown command ${JSON.stringify(first)}.`);

  const allowed = FLAGS[name] as readonly string[];
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index] as string;
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    if (match === null) {
      if (arg.startsWith('-')) throw new UsageError(`Unknown option ${JSON.stringify(arg)}.`);
      positional.push(arg);
      continue;
    }
    const flag = match[1] as string;
    if (!allowed.includes(flag))
      throw new UsageError(
        `Unknown option --${flag} for ${name.replace('-', ' ')}. It takes ${allowed.map((f) => `--${f}`).join(', ')}.`,
      );
    const value = match[2] ?? rest[++index];
    if (value === undefined) throw new UsageError(`--${flag} needs a value.`);
    flags.set(flag, value);
  }
  const store = flags.get('store') ?? env.LINEUP_AGENT_STORE ?? DEFAULT_STORE;
  if (store.trim() === '') throw new UsageError('--store needs a folder or a postgres:// URL.');

  if (name === 'token-issue' || name === 'token-revoke') {
    if (positional.length !== 1)
      throw new UsageError(`lineup-agent ${name.replace('-', ' ')} takes one device id.`);
    const deviceId = positional[0] as string;
    return name === 'token-issue'
      ? { command: 'token-issue', store, deviceId, label: flags.get('label') ?? '' }
      : { command: 'token-revoke', store, deviceId };
  }
  if (positional.length > 0) throw new UsageError(`Unexpected argument ${JSON.stringify(positional[0])}.`);
  if (name === 'devices') return { command: 'devices', store };

  const mode = flags.get('mode') ?? env.LINEUP_AGENT_MODE ?? 'scripted';
  if (mode !== 'scripted' && mode !== 'llm')
    throw new UsageError(`--mode must be scripted or llm, not ${JSON.stringify(mode)}.`);
  const portText = flags.get('port') ?? env.PORT ?? '8787';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new UsageError(`Invalid port ${JSON.stringify(portText)}.`);
  const host = flags.get('host') ?? env.HOST ?? '127.0.0.1';
  const path = flags.get('path') ?? '/agent';
  if (!/^\/[\x21-\x7e]{0,200}$/.test(path) || path.includes('?') || path.includes('#'))
    throw new UsageError(`--path must start with / and hold no spaces, ? or #, not ${JSON.stringify(path)}.`);
  const serve = { command: 'serve' as const, store, port, host, path, mode: mode as Mode };
  if (mode === 'scripted') return serve;
  const model = env.OPENAI_MODEL;
  if (!model)
    throw new UsageError(
      'llm mode needs OPENAI_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY as your provider requires).',
    );
  const apiKey = env.OPENAI_API_KEY;
  return {
    ...serve,
    llm: {
      baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
      model,
      ...(apiKey ? { apiKey } : {}),
    },
  };
}

/** The URL a device dials: the host's URL with its token as `?token=`. */
export function deviceUrl(url: string, token: string): string {
  const target = new URL(url);
  target.searchParams.set('token', token);
  return target.toString();
}
