/**
 * Vocabulary shared by the `lineup.v1` messages (seed 000 §3–§5) and the Agent Tool descriptors (seed 003 §4):
 * ids, names, versions, risk levels, timestamps and text for people. Every string is bounded and, where it is
 * an identifier, drawn from a closed alphabet, so no message can smuggle markup, whitespace tricks or control
 * characters into a place that is logged, compared or shown.
 */
import { z } from 'zod';
import type { UIIssueCode } from '../../errors/issues.js';
import { TOKEN_PATTERN } from '../../names/names.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/**
 * Printable ASCII without the space (U+0021–U+007E): ids are opaque, compared byte for byte, and must read
 * the same in a log line (seed 002 §13 "非空可打印 ASCII 字符串，最长 128"; the space is left out so an id
 * never needs trimming).
 */
export const LINEUP_ID_PATTERN = /^[\x21-\x7e]+$/;

/** A message, conversation, call, party or revision id. */
export const LineUpIdSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxIdLength)
  .regex(LINEUP_ID_PATTERN)
  .meta({ id: 'LineUpId', description: 'Printable ASCII without spaces, 1–128 characters.' });

export const LineUpTokenSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxTokenLength)
  .regex(TOKEN_PATTERN)
  .meta({ id: 'LineUpToken', description: 'snake_case, starting with a letter, at most 64 characters.' });

/** A short local name: a surface id (`canvas`) or a standard component id (`choice`). */
export const LOCAL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** seed 000 §5.2: exactly these four risk levels; the last two are never remembered as a permanent grant. */
export const LINEUP_RISK_LEVELS = [
  'display_only',
  'user_confirmation',
  'system_permission',
  'restricted',
] as const;
export type LineUpRiskLevel = (typeof LINEUP_RISK_LEVELS)[number];
export const RiskLevelSchema = z.enum(LINEUP_RISK_LEVELS).meta({ id: 'RiskLevel' });

/**
 * seed 000 §4.1: a reverse-DNS application id (`com.lineup.weather.dashboard`): at least two dot-separated
 * lowercase labels, each starting with a letter; `-` and `_` inside a label.
 */
export const APP_ID_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)+$/;

export const AppIdSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxQualifiedNameLength)
  .regex(APP_ID_PATTERN)
  .meta({
    id: 'AppId',
    description: 'Reverse-DNS: lowercase labels joined by dots, such as com.lineup.pomodoro.',
  });

/** Semantic Versioning 2.0.0, the regular expression of semver.org. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** seed 000 §4.1: an application's `version` is SemVer. */
export const SemVerSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxVersionLength)
  .regex(SEMVER_PATTERN)
  .meta({ id: 'SemVer', description: 'Semantic Versioning 2.0.0, such as 1.0.0.' });

/**
 * The version of a contract rather than of a release: a capability (`"1.0"`, seed 000 §5.1), a standard
 * component (`"1"`) or an Agent Tool's `contract_version` (seed 003 §4.1). One to three dot-separated
 * non-negative integers without leading zeros.
 */
export const CONTRACT_VERSION_PATTERN = /^(?:0|[1-9]\d{0,8})(?:\.(?:0|[1-9]\d{0,8})){0,2}$/;

export const ContractVersionSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxVersionLength)
  .regex(CONTRACT_VERSION_PATTERN)
  .meta({ id: 'ContractVersion', description: 'One to three dot-separated integers, such as 1 or 1.0.' });

/**
 * seed 000 §2.7, §4.1: `integrity` is Subresource-Integrity style `sha256-<base64>`. A SHA-256 digest is
 * 32 bytes, so exactly 43 base64 characters and one `=`; anything else could never be verified.
 */
export const INTEGRITY_PATTERN = /^sha256-[A-Za-z0-9+/]{43}=$/;

export const IntegritySchema = z
  .string()
  .regex(INTEGRITY_PATTERN)
  .meta({ id: 'Integrity', description: 'sha256- followed by the base64 SHA-256 digest (44 characters).' });

/**
 * seed 000 §5: a capability name, dotted snake_case segments (`app.open_url`, `clipboard.write`,
 * `device.pick_file`, `artifact.save`).
 */
export const CAPABILITY_NAME_PATTERN = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+$/;

export const CapabilityNameSchema = z
  .string()
  .min(1)
  .max(LINEUP_WIRE_LIMITS.maxQualifiedNameLength)
  .regex(CAPABILITY_NAME_PATTERN)
  .meta({ id: 'CapabilityName', description: 'Dotted snake_case, such as clipboard.write.' });

/** seed 000 §5.3: `expires_at` is an RFC 3339 date-time with `Z` or a numeric offset. */
export const TimestampSchema = z.iso
  .datetime({ offset: true })
  .max(LINEUP_WIRE_LIMITS.maxTimestampLength)
  .meta({ id: 'LineUpTimestamp', description: 'RFC 3339 date-time with Z or an offset.' });

/**
 * Text for people (a confirmation reason, a description, an error message): no C0 or C1 control character
 * except tab and line feed, and not blank. It is rendered as text, never as markup (DESIGN.md "Security").
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const HUMAN_TEXT_PATTERN = /^[^\x00-\x08\x0b-\x1f\x7f-\x9f]*$/;

const NOT_BLANK = /\S/;

/** `schema`, refusing text that is only white space (`invalid_value`). */
export function notBlank(schema: z.ZodString) {
  return schema.refine((text) => NOT_BLANK.test(text), {
    message: 'Must contain more than white space.',
    params: { code: 'invalid_value' satisfies UIIssueCode },
  });
}

/** Text for people of at most `maxLength` UTF-16 code units. */
export function humanText(maxLength: number) {
  return notBlank(z.string().min(1).max(maxLength).regex(HUMAN_TEXT_PATTERN));
}

/** A display name: one line of text for people. */
export const DisplayNameSchema = humanText(LINEUP_WIRE_LIMITS.maxNameLength).meta({
  id: 'LineUpDisplayName',
  description: 'Text for people, 1–128 characters, no control characters.',
});

/**
 * Adds a `duplicate_id` issue at `[...path, index, ...keyPath]` for every item whose key was seen before.
 * Used for the unique-id rules of inventories and manifests.
 */
export function checkUnique<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  context: z.RefinementCtx,
  path: readonly (string | number)[],
  keyPath: readonly (string | number)[],
  what: string,
): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (seen.has(key)) {
      context.addIssue({
        code: 'custom',
        path: [...path, index, ...keyPath],
        message: `Each ${what} may appear only once.`,
        params: { code: 'duplicate_id' satisfies UIIssueCode },
      });
    }
    seen.add(key);
  });
}
