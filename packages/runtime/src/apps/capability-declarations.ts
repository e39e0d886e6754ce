/**
 * The capabilities the host declares (seed 000 §5.2): each checked (untrusted input: a valid descriptor with a
 * description and an output schema the runtime can validate with, names unique), stored, listed in the inventory
 * until it is revoked, and listed with its input schema in `lineup.v1.app.list`. Declaring, revoking or changing
 * one is a new inventory revision. Declaring never grants: a call still needs the user's consent by its risk
 * (`CapabilityRuntime`).
 */
import { canonicalJSONString, LineUpProtocolError } from '@lineup/shared';
import {
  type AppCapabilityDescriptor,
  AppCapabilityDescriptorSchema,
  type AppListPayload,
} from '@lineup/shared/protocol';
import { type CapabilityRecord, REGISTRY_STORES } from '../storage/database.js';
import { assertUsableSchema } from '../tools/schema-validator.js';
import { byName } from './inventory.js';
import { commit, publish, type RegistryContext } from './registry-persistence.js';

/** A capability the host declares: its public descriptor, and what running it does in the user's words. */
export interface CapabilityDeclaration extends AppCapabilityDescriptor {
  /** Shown in the confirmation: what will happen (plain text, at most 512 characters). */
  readonly description: string;
  /** The JSON Schema its result must match. */
  readonly output_schema: Readonly<Record<string, unknown>>;
}

/** See `AppRegistry.declareCapabilities`: one new revision for every declaration that changed. */
export async function declareCapabilities(
  context: RegistryContext,
  declarations: readonly CapabilityDeclaration[],
): Promise<boolean> {
  const checked = declarations.map((declaration, index) => checkDeclaration(declaration, index));
  const names = new Set<string>();
  for (const [index, declaration] of checked.entries()) {
    if (names.has(declaration.name))
      throw new LineUpProtocolError([
        { path: `[${index}].name`, code: 'duplicate_id', message: 'Each capability is declared once.' },
      ]);
    names.add(declaration.name);
  }
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const store = transaction.objectStore('capabilities');
  const stored = new Map((await store.getAll()).map((record) => [record.name, record]));
  const now = context.clock.now();
  const changed = checked.filter((declaration) => {
    const existing = stored.get(declaration.name);
    return (
      existing === undefined ||
      existing.revoked ||
      canonicalJSONString(declarationOf(existing)) !== canonicalJSONString(declaration)
    );
  });
  if (changed.length === 0) {
    await transaction.done;
    return false;
  }
  const records: CapabilityRecord[] = changed.map((declaration) => ({
    ...declaration,
    revoked: false,
    declaredAt: now,
  }));
  for (const record of records) stored.set(record.name, record);
  const apps = await transaction.objectStore('apps').getAll();
  await commit(transaction, async () => {
    for (const record of records) await store.put(record);
    await publish(
      context,
      transaction,
      apps,
      {
        at: now,
        type: 'capability_declared',
        appId: 'host',
        version: records.map((record) => `${record.name}@${record.version}`).join(' '),
      },
      [...stored.values()],
    );
  });
  return true;
}

/** See `AppRegistry.revokeCapability`. */
export async function revokeCapability(context: RegistryContext, name: string): Promise<boolean> {
  const transaction = context.db.transaction(REGISTRY_STORES, 'readwrite');
  const store = transaction.objectStore('capabilities');
  const existing = await store.get(name);
  if (existing === undefined) {
    transaction.abort();
    await transaction.done.catch(() => {});
    throw new LineUpProtocolError([
      { path: 'name', code: 'unknown_reference', message: 'No capability with this name was declared.' },
    ]);
  }
  if (existing.revoked) {
    await transaction.done;
    return false;
  }
  const now = context.clock.now();
  const record: CapabilityRecord = { ...existing, revoked: true };
  const all = (await store.getAll()).map((item) => (item.name === name ? record : item));
  const apps = await transaction.objectStore('apps').getAll();
  await commit(transaction, async () => {
    await store.put(record);
    await publish(
      context,
      transaction,
      apps,
      { at: now, type: 'capability_revoked', appId: 'host', version: `${name}@${existing.version}` },
      all,
    );
  });
  return true;
}

/** Every capability the host declared, revoked ones included, by name. */
export async function listCapabilities(context: RegistryContext): Promise<CapabilityRecord[]> {
  return (await context.db.getAll('capabilities')).sort(byName);
}

/** `lineup.v1.app.list` (seed 000 §5.2): the unrevoked capabilities with their input schemas. */
export async function appList(context: RegistryContext): Promise<AppListPayload> {
  const capabilities = (await listCapabilities(context))
    .filter((capability) => !capability.revoked)
    .map(({ name, version, risk, input_schema }) => ({ name, version, risk, input_schema }));
  return { capabilities } as AppListPayload;
}

const MAX_DESCRIPTION_LENGTH = 512;

/** The stored declaration, as it was given (for comparing). */
function declarationOf(record: CapabilityRecord): CapabilityDeclaration {
  const { revoked: _revoked, declaredAt: _declaredAt, ...declaration } = record;
  return declaration as CapabilityDeclaration;
}

function checkDeclaration(input: CapabilityDeclaration, index: number): CapabilityDeclaration {
  if (typeof input !== 'object' || input === null)
    throw new LineUpProtocolError([
      { path: `[${index}]`, code: 'invalid_type', message: 'A capability declaration is an object.' },
    ]);
  const { description, output_schema, ...descriptor } = input;
  const parsed = AppCapabilityDescriptorSchema.safeParse(descriptor);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LineUpProtocolError([
      {
        path: `[${index}]${issue?.path.length ? `.${issue.path.join('.')}` : ''}`,
        code: 'invalid_value',
        message: `Not a valid capability descriptor: ${issue?.message ?? 'invalid'}`,
      },
    ]);
  }
  if (
    typeof description !== 'string' ||
    description.trim() === '' ||
    description.length > MAX_DESCRIPTION_LENGTH
  )
    throw new LineUpProtocolError([
      {
        path: `[${index}].description`,
        code: 'invalid_value',
        message: `A capability needs a description of 1–${MAX_DESCRIPTION_LENGTH} characters: what running it does.`,
      },
    ]);
  if (typeof output_schema !== 'object' || output_schema === null || Array.isArray(output_schema))
    throw new LineUpProtocolError([
      {
        path: `[${index}].output_schema`,
        code: 'invalid_type',
        message: 'An output schema is a JSON Schema object.',
      },
    ]);
  assertUsableSchema(parsed.data.input_schema, {
    kind: 'capability',
    name: parsed.data.name,
    schema: 'input',
  });
  assertUsableSchema(output_schema, { kind: 'capability', name: parsed.data.name, schema: 'output' });
  return JSON.parse(JSON.stringify({ ...parsed.data, description, output_schema })) as CapabilityDeclaration;
}
