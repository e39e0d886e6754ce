/**
 * What an MCP App view is told about the host (`ui/initialize`'s `hostContext`, and `host-context-changed`): the
 * theme and the host's style variables for it (light and dark, the same colours as the host's own), the user's
 * language and time zone, the display mode (inline only: a view lives in the conversation), the room it has, the
 * tool whose call shows it, the host's name (`userAgent`), the platform (`web`), what the device's input can do
 * (`deviceCapabilities`) and the safe-area insets (none: a view sits inside the conversation, never at a screen edge).
 * No `styles.css.fonts`: the host's type is the system's (`--font-sans`, `--font-mono`), nothing to load.
 */
import type { HostLanguage } from '../i18n/language.ts';

export type HostTheme = 'light' | 'dark';

/** The MCP Apps style variables this host sets, by theme: its own colours and type. */
const VARIABLES: Readonly<Record<HostTheme, Readonly<Record<string, string>>>> = {
  light: {
    '--color-background-primary': '#ffffff',
    '--color-background-secondary': '#f5f6f8',
    '--color-background-tertiary': '#eceef2',
    '--color-background-inverse': '#1d2230',
    '--color-text-primary': '#1d2230',
    '--color-text-secondary': '#4a5163',
    '--color-text-tertiary': '#5c6272',
    '--color-text-inverse': '#ffffff',
    '--color-text-info': '#1d4ed8',
    '--color-text-danger': '#b42318',
    '--color-text-success': '#106c36',
    '--color-border-primary': '#c7cbd4',
    '--color-border-secondary': '#dfe2e8',
    '--color-ring-primary': '#2563eb',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    '--font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    '--border-radius-sm': '4px',
    '--border-radius-md': '6px',
    '--border-radius-lg': '10px',
  },
  dark: {
    '--color-background-primary': '#1d1e24',
    '--color-background-secondary': '#14161c',
    '--color-background-tertiary': '#262933',
    '--color-background-inverse': '#e6e8ee',
    '--color-text-primary': '#e6e8ee',
    '--color-text-secondary': '#c2c6d0',
    '--color-text-tertiary': '#a9aebb',
    '--color-text-inverse': '#14161c',
    '--color-text-info': '#93b4ff',
    '--color-text-danger': '#ff8a80',
    '--color-text-success': '#7ddc9c',
    '--color-border-primary': '#4a4f5c',
    '--color-border-secondary': '#343843',
    '--color-ring-primary': '#93b4ff',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    '--font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    '--border-radius-sm': '4px',
    '--border-radius-md': '6px',
    '--border-radius-lg': '10px',
  },
};

/** The theme the host shows now (it follows the system's). */
export function hostTheme(view: Window = window): HostTheme {
  return view.matchMedia?.('(prefers-color-scheme: dark)').matches === true ? 'dark' : 'light';
}

/** Calls `listener` with the new theme whenever the host's changes. */
export function onHostThemeChange(listener: (theme: HostTheme) => void, view: Window = window): () => void {
  const query = view.matchMedia?.('(prefers-color-scheme: dark)');
  if (query === undefined) return () => {};
  const onChange = () => listener(query.matches ? 'dark' : 'light');
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The BCP 47 tag of the host's language. */
export function localeOf(language: HostLanguage): string {
  return language === 'zh' ? 'zh-CN' : 'en-US';
}

/** What this host calls itself to a view (`hostContext.userAgent`, and the bridge's `hostInfo`). */
export const MCP_HOST_INFO = Object.freeze({ name: 'LineUp Web Reference Host', version: '0.0.0' });

/**
 * What the device's input can do, as the browser says (`hostContext.deviceCapabilities`): touch when it reports touch
 * points or a coarse pointer, hover when its primary pointer can hover.
 */
export function deviceCapabilities(view: Window = window): { touch: boolean; hover: boolean } {
  const matches = (query: string) => view.matchMedia?.(query).matches === true;
  return {
    touch: (view.navigator?.maxTouchPoints ?? 0) > 0 || matches('(any-pointer: coarse)'),
    hover: matches('(hover: hover)'),
  };
}

/** The context a view gets in `ui/initialize` (and the theme part again when it changes). */
export function mcpHostContext(options: {
  readonly theme: HostTheme;
  readonly language: HostLanguage;
  readonly width: number;
  readonly maxHeight: number;
  readonly tool: { readonly name: string; readonly description: string; readonly inputSchema: object };
  readonly view?: Window;
}) {
  return {
    theme: options.theme,
    styles: { variables: { ...VARIABLES[options.theme] } },
    locale: localeOf(options.language),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    displayMode: 'inline' as const,
    availableDisplayModes: ['inline' as const, 'fullscreen' as const],
    platform: 'web' as const,
    userAgent: `${MCP_HOST_INFO.name}/${MCP_HOST_INFO.version}`,
    deviceCapabilities: deviceCapabilities(options.view),
    safeAreaInsets: { top: 0, right: 0, bottom: 0, left: 0 },
    containerDimensions: { width: Math.max(1, Math.round(options.width)), maxHeight: options.maxHeight },
    toolInfo: { tool: { ...options.tool, inputSchema: { type: 'object', ...options.tool.inputSchema } } },
  };
}

/** The part of the context that follows the theme. */
export function themeContext(theme: HostTheme) {
  return { theme, styles: { variables: { ...VARIABLES[theme] } } };
}
