/** One Agent Tool of an installed app: its name, call model, activation and risk, its description, and its settings. */
import type { AgentToolDescriptor } from '@lineup/shared/protocol';
import type { ReactNode } from 'react';
import { useText } from '../i18n/LanguageProvider.tsx';
import { ToolDescription } from './ConsentSettings.tsx';

export function ToolItem({
  tool,
  agentOnly = false,
  children,
}: {
  readonly tool: AgentToolDescriptor;
  /** An MCP tool its views may not call. */
  readonly agentOnly?: boolean;
  /** The tool's consent setting. */
  readonly children?: ReactNode;
}) {
  const text = useText();
  return (
    <li>
      <code>
        {tool.app_scope}.{tool.method}
      </code>{' '}
      <span className="host__tool-meta">
        {text.apps.callModels[tool.call_model]} · {text.apps.activations[tool.activation]}
        {tool.risk !== undefined && <> · {text.apps.risk(tool.risk)}</>}
        {agentOnly && <> · {text.apps.mcp.agentOnly}</>}
      </span>
      <details className="host__tool-description">
        <summary>{text.apps.description}</summary>
        <ToolDescription description={tool.description} />
      </details>
      {children}
    </li>
  );
}
