/**
 * @lineup/create-miniapp — what `npm create @lineup/miniapp` runs (`create-miniapp`), and the same as a function
 * (`createMiniApp`) for tools that make MiniApps.
 */
export {
  appScopeFromName,
  type CreatedMiniApp,
  CreateMiniAppError,
  type CreateMiniAppErrorCode,
  type CreateMiniAppOptions,
  createMiniApp,
  displayNameFromName,
  type PackageManager,
  packageManagerOf,
  runCommand,
  TEMPLATE_TOOL_VERSIONS,
} from './create.js';
