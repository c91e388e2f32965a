import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork } from '../../../../test/graph-fixtures.ts';
import { bearer, createTestContext, type TestContext } from '../../../../test/harness.ts';
import { multipartBody } from '../../../../test/multipart.ts';
import { recomputeDirty } from '../../../graph/graph.service.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('CRM customers and the network', () => {
  it('takes an uploaded customer’s people out of the network at the next recompute', async () => {
    const { admin, ws, people } = await buildNetwork(ctx);
    await recomputeDirty(ctx.database, ws);
    const inNetwork = async () =>
      (
        await ctx.database.inWorkspace(ws, (tx) =>
          tx.execute(sql`select 1 from network_rows r join people p on p.workspace_id = r.workspace_id and p.id = r.prospect_id
                          where p.email = ${people.met}`),
        )
      ).rows.length > 0;
    expect(await inNetwork()).toBe(true);

    const domain = people.met.split('@')[1];
    const { body, contentType } = multipartBody({}, [
      { filename: 'customers.csv', content: `Company name,Company domain\nTarget,${domain}\n` },
    ]);
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/crm-clients/command/upload-crm-clients',
      headers: { ...bearer(admin.token), 'content-type': contentType },
      payload: body,
    });
    expect(upload.statusCode).toBe(200);
    await recomputeDirty(ctx.database, ws);
    expect(await inNetwork()).toBe(false);
  });
});
