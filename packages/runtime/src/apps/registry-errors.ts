/** The registry's refusals of an app id, below the modules of the registry that throw them. */
import { LineUpProtocolError } from '@lineup/shared';

/** The error for an app that is an MCP server where a MiniApp was asked for. */
export function notAMiniApp(): LineUpProtocolError {
  return new LineUpProtocolError([
    {
      path: 'appId',
      code: 'unknown_reference',
      message: 'This app is an MCP server: it has no bundle to mount.',
    },
  ]);
}

/** The error for an app id that is not installed. */
export function notInstalled(): LineUpProtocolError {
  return new LineUpProtocolError([
    { path: 'appId', code: 'unknown_reference', message: 'No app with this id is installed.' },
  ]);
}

/** The error for an app that is a MiniApp where an MCP server was asked for. */
export function notAnMcpServer(): LineUpProtocolError {
  return new LineUpProtocolError([
    { path: 'appId', code: 'unknown_reference', message: 'This app is not an MCP server.' },
  ]);
}
