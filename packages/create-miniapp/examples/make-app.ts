import { CreateMiniAppError, createMiniApp } from '@lineup/create-miniapp';

/** Makes `<parent>/my-notes` for pnpm; returns the files written, or null when refused (then nothing was written). */
export function makeNotesApp(parent: string): readonly string[] | null {
  try {
    const app = createMiniApp({
      directory: 'my-notes',
      cwd: parent,
      appScope: 'notes',
      packageManager: 'pnpm',
    });
    return app.files; // ['.gitignore', 'README.md', 'index.html', 'package.json', 'src/main.ts', …]
  } catch (error) {
    if (error instanceof CreateMiniAppError) {
      console.error(`${error.code}: ${error.message}`); // e.g. directory_not_empty: … is not empty; …
      return null;
    }
    throw error;
  }
}
