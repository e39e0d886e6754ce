/**
 * The host's own text in English and Chinese, put together from one table per screen: the page around them
 * (shell.ts), the conversation, the workspace, the consent dialog, the app center and the agent console. Protocol
 * logs (the "→ agent" lines) stay as sent: they are messages, not prose.
 */
import { APP_CENTER_TEXT, type AppCenterText } from './app-center.ts';
import { CONSENT_TEXT, type ConsentText } from './consent.ts';
import { CONSOLE_TEXT, type ConsoleText } from './console.ts';
import { CONVERSATION_TEXT, type ConversationText } from './conversation.ts';
import type { Bilingual, HostLanguage } from './language.ts';
import { SHELL_TEXT, type ShellText } from './shell.ts';
import { WORKSPACE_TEXT, type WorkspaceText } from './workspace.ts';

/** Every screen's text, as the views read it: the page's, the conversation's and the workspace's at the top. */
export type HostText = ShellText &
  ConversationText &
  WorkspaceText & {
    readonly consent: ConsentText;
    /** The app center (app-center/AppCenter.tsx): installed MiniApps, the bundled catalogue, installing. */
    readonly apps: AppCenterText;
    /** The agent console (console/AgentConsole.tsx): a protocol inspector that speaks as the agent. */
    readonly agentConsole: ConsoleText;
  };

function hostText(language: HostLanguage): HostText {
  return {
    ...SHELL_TEXT[language],
    ...CONVERSATION_TEXT[language],
    ...WORKSPACE_TEXT[language],
    consent: CONSENT_TEXT[language],
    apps: APP_CENTER_TEXT[language],
    agentConsole: CONSOLE_TEXT[language],
  };
}

export const HOST_TEXT: Bilingual<HostText> = { en: hostText('en'), zh: hostText('zh') };
