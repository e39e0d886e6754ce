// Vite's `import.meta.glob`, used by tests to load every fixture or read every source file without Node APIs.
interface ImportMeta {
  glob<T>(
    pattern: string | readonly string[],
    options: { eager: true; import: 'default'; query?: '?raw' },
  ): Record<string, T>;
}
