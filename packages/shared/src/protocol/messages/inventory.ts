/**
 * `lineup.v1.client.inventory` and `lineup.v1.app.list` (seed 000 §5.1–§5.2), client → agent.
 *
 * The inventory is the one revisioned, minimal interface list of a host for one agent conversation: standard
 * components, the declared Surfaces of enabled applications, the capabilities policy lets it see, and — the
 * seeds leave this open; DESIGN.md puts them here — the Agent Tools the runtime publishes (seed 003 §4.1).
 * It carries no bundle source, install origin, login state, file path or user content, and listing something
 * never grants it. `app.list` is the optional capability-only projection, with each capability's input schema.
 */
import { z } from 'zod';
import { checkJSONBytes } from '../../json/json-data.js';
import { UI_PROTOCOL_LIMITS } from '../../limits/ui-limits.js';
import { AgentToolInventoryEntrySchema } from '../tools/descriptor.js';
import {
  AppIdSchema,
  CapabilityNameSchema,
  ContractVersionSchema,
  checkUnique,
  LineUpIdSchema,
  LOCAL_NAME_PATTERN,
  RiskLevelSchema,
  SemVerSchema,
} from './common.js';
import { jsonSchemaObject } from './json-schema-shape.js';
import { LINEUP_WIRE_LIMITS } from './limits.js';
import { SurfaceIdSchema, UIEventNameSchema } from './surface.js';

/** seed 000 §5.1: a standard component the host renders itself (`{"id":"choice","version":"1"}`). */
export const StandardComponentSchema = z
  .strictObject({
    id: z.string().min(1).max(LINEUP_WIRE_LIMITS.maxTokenLength).regex(LOCAL_NAME_PATTERN),
    version: ContractVersionSchema,
  })
  .meta({ id: 'StandardComponent' });
export type StandardComponent = z.infer<typeof StandardComponentSchema>;

/** seed 000 §5.1: a declared Surface of an enabled app and the events it may send. */
export const InventorySurfaceSchema = z
  .strictObject({
    id: SurfaceIdSchema,
    events: z.array(UIEventNameSchema).max(LINEUP_WIRE_LIMITS.maxEventsPerSurface),
  })
  .superRefine((surface, context) =>
    checkUnique(surface.events, (event) => event, context, ['events'], [], 'event'),
  )
  .meta({ id: 'InventorySurface' });
export type InventorySurface = z.infer<typeof InventorySurfaceSchema>;

/** seed 000 §5.1: an application that is enabled and verified locally. */
export const InventoryApplicationSchema = z
  .strictObject({
    id: AppIdSchema,
    version: SemVerSchema,
    surfaces: z.array(InventorySurfaceSchema).max(LINEUP_WIRE_LIMITS.maxSurfacesPerApplication),
  })
  .superRefine((application, context) =>
    checkUnique(application.surfaces, (surface) => surface.id, context, ['surfaces'], ['id'], 'surface id'),
  )
  .meta({ id: 'InventoryApplication' });
export type InventoryApplication = z.infer<typeof InventoryApplicationSchema>;

/** seed 000 §5.1: a capability the agent may request with `app.call`: name, contract version and risk. */
export const AppCapabilitySchema = z
  .strictObject({ name: CapabilityNameSchema, version: ContractVersionSchema, risk: RiskLevelSchema })
  .meta({ id: 'AppCapability' });
export type AppCapability = z.infer<typeof AppCapabilitySchema>;

/**
 * seed 000 §5.2: a capability with the JSON Schema of its arguments, at most
 * `UI_PROTOCOL_LIMITS.maxCapabilityBytes` (seed 002 §13: one public capability descriptor with its schema).
 */
export const AppCapabilityDescriptorSchema = z
  .strictObject({
    ...AppCapabilitySchema.shape,
    input_schema: jsonSchemaObject({
      maxBytes: UI_PROTOCOL_LIMITS.maxCapabilityBytes,
      what: 'An input schema',
      objectRoot: true,
    }),
  })
  .superRefine((descriptor, context) =>
    checkJSONBytes(descriptor, UI_PROTOCOL_LIMITS.maxCapabilityBytes, context, 'A capability descriptor'),
  )
  .meta({ id: 'AppCapabilityDescriptor' });
export type AppCapabilityDescriptor = z.infer<typeof AppCapabilityDescriptorSchema>;

const capabilities = <T extends z.ZodType<{ readonly name: string }>>(item: T) =>
  z.array(item).max(UI_PROTOCOL_LIMITS.maxCapabilities);

/**
 * `lineup.v1.client.inventory` (seed 000 §5.1). `revision` increases or is never reused; the agent decides
 * with the latest one. `tools` is absent when the host publishes no Agent Tool.
 */
export const ClientInventoryPayloadSchema = z
  .strictObject({
    revision: LineUpIdSchema,
    standard_components: z.array(StandardComponentSchema).max(LINEUP_WIRE_LIMITS.maxStandardComponents),
    applications: z.array(InventoryApplicationSchema).max(LINEUP_WIRE_LIMITS.maxApplications),
    capabilities: capabilities(AppCapabilitySchema),
    tools: z.array(AgentToolInventoryEntrySchema).max(LINEUP_WIRE_LIMITS.maxInventoryTools).exactOptional(),
  })
  .superRefine((inventory, context) => {
    const { standard_components: components, applications, capabilities: declared, tools } = inventory;
    checkUnique(
      components,
      (component) => component.id,
      context,
      ['standard_components'],
      ['id'],
      'component id',
    );
    checkUnique(applications, (application) => application.id, context, ['applications'], ['id'], 'app id');
    checkUnique(declared, (capability) => capability.name, context, ['capabilities'], ['name'], 'capability');
    if (tools !== undefined)
      checkUnique(tools, (tool) => tool.name, context, ['tools'], ['name'], 'tool name');
  })
  .meta({ id: 'ClientInventoryPayload' });
export type ClientInventoryPayload = z.infer<typeof ClientInventoryPayloadSchema>;

/** `lineup.v1.app.list` (seed 000 §5.2): capabilities only, never a replacement for the inventory. */
export const AppListPayloadSchema = z
  .strictObject({ capabilities: capabilities(AppCapabilityDescriptorSchema) })
  .superRefine((list, context) =>
    checkUnique(
      list.capabilities,
      (capability) => capability.name,
      context,
      ['capabilities'],
      ['name'],
      'capability',
    ),
  )
  .meta({ id: 'AppListPayload' });
export type AppListPayload = z.infer<typeof AppListPayloadSchema>;
