/**
 * The control of the consent suite: the runtime's consent step switched off — every call routed as if its policy
 * allowed it, no question, no refusal. Only `consent-off.mjs` builds the host with it (never the quick start or CI's
 * build); the consent suite run against that build must fail.
 */
export class ConsentSteps {
  constructor(_consent: unknown, _pipeline: unknown) {}

  async gateIn(): Promise<boolean> {
    return true;
  }

  ask(): void {}

  async decide(): Promise<void> {}

  async viewCall(): Promise<undefined> {
    return undefined;
  }

  auditIn(): Promise<unknown> {
    return Promise.resolve();
  }
}
