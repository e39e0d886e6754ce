// Vite's `?raw` imports, used by tests to read the README and example sources without Node APIs.
declare module '*?raw' {
  const content: string;
  export default content;
}
