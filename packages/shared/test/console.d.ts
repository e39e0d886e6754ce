// The package's sources see only the ES library (no DOM, no Node). Examples and tests print with console,
// which every JavaScript host has; they alone get this declaration (tsconfig.build.json compiles src only).
declare const console: {
  log(...values: unknown[]): void;
  error(...values: unknown[]): void;
  warn(...values: unknown[]): void;
};
