import { canonicalJSONString, documentJsonSchema, hashCanonicalJSON, UI_LIMITS } from '@lineup/shared';

// The Draft 2020-12 schema for editors and tools (also shipped as @lineup/shared/ui.schema.json).
console.log(documentJsonSchema.$id); // 'urn:dsh:intelligent-ui:document:1.1'

// Content binding: the same data in any key order has the same canonical text and SHA-256.
console.log(canonicalJSONString({ b: 1, a: [true, null] })); // '{"a":[true,null],"b":1}'
console.log(hashCanonicalJSON({ b: 1, a: [true, null] }) === hashCanonicalJSON({ a: [true, null], b: 1 })); // true

console.log(UI_LIMITS.maxComponents); // 200
