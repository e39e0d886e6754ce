/**
 * Imported first by `main.ts`, before the tools module builds its zod schemas: zod parses without generated code.
 *
 * A MiniApp page runs under the runtime's Content Security Policy, which never allows `'unsafe-eval'`. Every zod
 * object schema asks, as it is built, whether the page may evaluate code (`new Function("")`, once per page); the
 * refused probe is harmless, but the browser reports it as a `securitypolicyviolation`. `jitless` skips the probe
 * (and zod's compiled fast path for objects, which the policy refuses anyway).
 */
import { z } from 'zod';

z.config({ jitless: true });
