/**
 * Setup shared by the agent's tests (`src/agent.*.test.ts`): the client-side harness with Pomodoro's tools in
 * its inventory.
 */
import { createHarness, type Harness } from './harness.js';

/** A harness with an inventory listing Pomodoro's tools at `inv-1`. */
export function withInventory(): Harness {
  const harness = createHarness();
  harness.inventory('inv-1');
  return harness;
}
