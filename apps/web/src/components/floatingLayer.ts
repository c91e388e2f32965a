// Mantine's floating components, imported only through `import()` by the controls that show them on
// first use (DeferredTooltip, TruncatedText): a module of their own, so the dynamic import keeps only these, not the
// whole of @mantine/core.
export { Tooltip } from '@mantine/core';
