/** The text of the workspace (workspace/Workspace.tsx): the MiniApp in the foreground, and closing a page. */
import type { Bilingual } from './language.ts';

const en = {
  workspace: {
    shown: 'In the foreground',
    opening: 'Opening…',
    back: 'Back to conversation',
    close: 'Close',
  },
  closeNamed: (name: string) => `Close ${name}`,
};

export type WorkspaceText = typeof en;

const zh: WorkspaceText = {
  workspace: { shown: '在前台', opening: '正在打开…', back: '返回对话', close: '关闭' },
  closeNamed: (name: string) => `关闭 ${name}`,
};

export const WORKSPACE_TEXT: Bilingual<WorkspaceText> = { en, zh };
