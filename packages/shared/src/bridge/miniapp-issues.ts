/**
 * One located issue as `lineup.miniapp.v1` carries it (the `issues` of a channel error): a path of names and
 * indexes and a known code, never a value. Zod-free: a MiniApp page (the SDK's dispatcher) and the runtime (its
 * answer to a refused page message) both build their issues here.
 */
import { UI_ISSUE_CODES, type UIIssueCode } from '../errors/issues.js';
import { MAX_ERROR_ISSUE_PATH_LENGTH, MINIAPP_ISSUE_PATH_PATTERN } from './miniapp-constants.js';

const ISSUE_CODES: ReadonlySet<string> = new Set(UI_ISSUE_CODES);

/** A channel issue: the shape of `MiniAppErrorIssue` (`miniapp.ts`), named here without the schemas. */
interface ChannelIssue {
  path: string;
  code: UIIssueCode;
}
/** A quoted key (`["a b"]`): a key that is not a name could be anything the user wrote. */
const QUOTED_KEY = /\["(?:[^"\\]|\\.)*"\]/g;

/**
 * The channel's issue for a located problem (`path` as `formatIssuePath` writes it): a quoted key becomes `[*]`;
 * a path the channel cannot carry (too long, or ending in `…`) becomes `$`; a code it does not know becomes
 * `invalid_value`.
 */
export function miniAppErrorIssue(path: string, code: string): ChannelIssue {
  const safe = path.replace(QUOTED_KEY, '[*]');
  return {
    path: safe.length <= MAX_ERROR_ISSUE_PATH_LENGTH && MINIAPP_ISSUE_PATH_PATTERN.test(safe) ? safe : '$',
    code: (ISSUE_CODES.has(code) ? code : 'invalid_value') as UIIssueCode,
  };
}
