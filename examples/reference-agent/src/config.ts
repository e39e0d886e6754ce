/** Reading the command line and the environment: `--mode scripted|llm`, `--port`, `PORT`, `OPENAI_*`. */
import type { AgentMode } from './agent-server.js';

export interface ReferenceAgentConfig {
  readonly mode: AgentMode;
  readonly port: number;
  readonly host: string;
  readonly llm?: { readonly baseUrl: string; readonly apiKey?: string; readonly model: string };
}

type Env = Readonly<Record<string, string | undefined>>;

/** Throws an `Error` whose message is meant for the person starting the server. */
export function readConfig(argv: readonly string[], env: Env): ReferenceAgentConfig {
  const flags = new Map<string, string>();
  const args = argv.filter((arg) => arg !== '--');
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    const match = /^--(mode|port|host)(?:=(.*))?$/.exec(arg);
    if (match === null)
      throw new Error(`Unknown argument ${JSON.stringify(arg)}. Use --mode scripted|llm, --port, --host.`);
    const value = match[2] ?? args[++index];
    if (value === undefined) throw new Error(`${arg} needs a value.`);
    flags.set(match[1] as string, value);
  }
  const mode = flags.get('mode') ?? env.LINEUP_AGENT_MODE ?? 'scripted';
  if (mode !== 'scripted' && mode !== 'llm')
    throw new Error(`--mode must be scripted or llm, not ${JSON.stringify(mode)}.`);
  const portText = flags.get('port') ?? env.PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`Invalid port ${JSON.stringify(portText)}.`);
  const host = flags.get('host') ?? env.HOST ?? '127.0.0.1';
  if (mode === 'scripted') return { mode, port, host };
  const model = env.OPENAI_MODEL;
  if (!model)
    throw new Error(
      'llm mode needs OPENAI_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY as your provider requires).',
    );
  const apiKey = env.OPENAI_API_KEY;
  return {
    mode,
    port,
    host,
    llm: {
      baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
      model,
      ...(apiKey ? { apiKey } : {}),
    },
  };
}
