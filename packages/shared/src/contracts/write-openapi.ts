import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi.ts';

/** `npm run openapi`: writes the document CI compares with the committed one. */
const target = new URL('../../../../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
