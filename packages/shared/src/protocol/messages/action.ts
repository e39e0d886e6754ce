/**
 * DSL 1.1 agent callbacks on the wire (seed 002 §11 `{ kind: 'agent', prompt }`; the names are this module's,
 * as the seeds leave them open):
 * - `lineup.v1.ui.action` (client → agent): the user clicked an agent action. The runtime has already
 *   reserved it in its action ledger (`operation_id`), and sends the computed prompt once, as a follow-up
 *   user turn of the conversation — never as a system message, and with no more authority than one.
 * - `lineup.v1.ui.action_result` (agent → client): the agent's answer for exactly that operation, which
 *   settles its receipt. `accepted` only means the agent queued the request; its actual reply comes later as
 *   `lineup.v1.chat.agent_message`. An answer for an operation the client does not hold open for an agent
 *   action changes nothing (the client's duty: a single message cannot prove it).
 *
 * Names: the answer's schema is `UIActionAnswerPayloadSchema` (type `UIActionAnswerPayload`, message
 * `UIActionAnswerMessage`) rather than `UIActionResult…`, because `UIActionResultSchema` already names the
 * public result scalars of a tool action (actions/protocol.ts); the wire type keeps the catalogue's
 * `.action_result`.
 *
 * Every field reuses the rule of the action protocol it mirrors: `operation_id` is a `UIRemoteIdSchema`,
 * `action_id` a DSL identifier, `document` the fields and cross-field rule of `UIDocumentRefSchema` in
 * snake_case, and the prompt's bound is `UI_PROTOCOL_LIMITS.maxAgentPromptLength`.
 */
import { z } from 'zod';
import { UIDocumentRefSchema, UIRemoteIdSchema } from '../../actions/protocol.js';
import { UIIdentifierSchema } from '../../dsl/schema.js';
import { UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';
import { humanText, notBlank } from './common.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';

/** The wire name of each `UIDocumentRef` field. */
const DOCUMENT_FIELDS = Object.freeze({
  sourceCallId: 'source_call_id',
  uiId: 'ui_id',
  generation: 'generation',
  revision: 'revision',
} as const);

const REFERENCE = UIDocumentRefSchema.shape;

/**
 * The document an action belongs to: a `UIDocumentRef` with snake_case names. Each field is the reference's
 * own schema, and the reference's cross-field rules (a complete UI, generation 0, has revision 0) are checked
 * by `UIDocumentRefSchema` itself, their issues moved to the wire names.
 */
const UIActionDocumentSchema = z
  .strictObject({
    source_call_id: REFERENCE.sourceCallId,
    ui_id: REFERENCE.uiId,
    generation: REFERENCE.generation,
    revision: REFERENCE.revision,
  })
  .superRefine((document, context) => {
    const reference = UIDocumentRefSchema.safeParse({
      sourceCallId: document.source_call_id,
      uiId: document.ui_id,
      generation: document.generation,
      revision: document.revision,
    });
    if (reference.success) return;
    for (const issue of reference.error.issues) {
      // The field rules are the same schemas as above, which have reported their issues already.
      if (issue.code !== 'custom') continue;
      const [field, ...rest] = issue.path;
      const wire = DOCUMENT_FIELDS[field as keyof typeof DOCUMENT_FIELDS] ?? field;
      context.addIssue({
        code: 'custom',
        path: wire === undefined ? rest : [wire, ...rest],
        message: issue.message,
        params: issue.params,
      });
    }
  });

/**
 * `lineup.v1.ui.action`: `operation_id` is the ledger's operation (`op_…`), `action_id` the clicked action of
 * `document`, and `prompt` what the action computed at the click — 1–4,096 characters, not only white space.
 * The agent reads `prompt` as the user's next message.
 */
export const UIActionPayloadSchema = z
  .strictObject({
    operation_id: UIRemoteIdSchema,
    action_id: UIIdentifierSchema,
    document: UIActionDocumentSchema,
    prompt: notBlank(z.string().min(1).max(UI_PROTOCOL_LIMITS.maxAgentPromptLength)),
  })
  .meta({
    id: 'UIActionPayload',
    description:
      'An agent action the user clicked, reserved as operation_id: its computed prompt, a follow-up user turn.',
  });
export type UIActionPayload = z.infer<typeof UIActionPayloadSchema>;

/**
 * How the agent answers a `ui.action`: `accepted` — it took the request into its queue, and promises nothing
 * more (the receipt settles `accepted`); `declined` — it will not act on it (the receipt settles `failed`).
 */
export const UI_ACTION_ANSWER_STATUSES = ['accepted', 'declined'] as const;
export type UIActionAnswerStatus = (typeof UI_ACTION_ANSWER_STATUSES)[number];

/**
 * `lineup.v1.ui.action_result`: the answer for one `operation_id`, and an optional `message` the client shows
 * the user as plain text (never markup), at most 256 characters.
 */
export const UIActionAnswerPayloadSchema = z
  .strictObject({
    operation_id: UIRemoteIdSchema,
    status: z.enum(UI_ACTION_ANSWER_STATUSES),
    message: humanText(LINEUP_WIRE_LIMITS.maxActionAnswerMessageLength).exactOptional(),
  })
  .meta({
    id: 'UIActionAnswerPayload',
    description:
      "The agent's answer to a ui.action: accepted (queued, nothing more) or declined, with optional plain text.",
  });
export type UIActionAnswerPayload = z.infer<typeof UIActionAnswerPayloadSchema>;
