import { build, defaultClientConditions } from 'vite';
import { SOURCE_CONDITIONS } from '../../../../vitest.shared.ts';

/**
 * A bench page's script, built from the workspace sources (their source condition first) into one IIFE that the
 * bench serves inline on the host's origin.
 */
export async function benchPageScript(entry: string, name: string): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    resolve: { conditions: [...SOURCE_CONDITIONS, ...defaultClientConditions] },
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  } as never);
  const outputs = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output : [],
  );
  const script = outputs.find((item) => item.fileName.endsWith('.js'));
  if (script === undefined || !('code' in script)) throw new Error(`The bench page ${entry} did not build.`);
  return script.code;
}
