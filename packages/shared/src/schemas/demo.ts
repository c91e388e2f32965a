import { z } from 'zod';

/**
 * A member's demo workspace: made-up data to explore the product with, apart from their real workspace.
 * 'ready' once it exists; the app then sends `DEMO_WORKSPACE_HEADER` to act in it.
 */
export const ZDemo = z.object({ status: z.enum(['none', 'ready']) });
export type TDemo = z.infer<typeof ZDemo>;
