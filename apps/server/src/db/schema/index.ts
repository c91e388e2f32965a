export * from './idp.ts';
export * from './users.ts';
export * from './workspaces.ts';
