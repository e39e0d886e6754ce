// Vite's `?raw` imports, used by tests to read the README and example sources without Node APIs.
declare module '*?raw' {
  const content: string;
  export default content;
}

// Vite's `import.meta.glob`, used by the JSON Schema Test Suite test to read the vendored files.
interface ImportMeta {
  glob<T = unknown>(
    pattern: string,
    options: { readonly eager: true; readonly query: '?raw'; readonly import: 'default' },
  ): Record<string, T>;
}
