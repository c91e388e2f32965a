export * from './graph.ts';
export * from './idp.ts';
export * from './invites.ts';
export * from './network.ts';
export * from './sync.ts';
export * from './targeting.ts';
export * from './users.ts';
export * from './workspaces.ts';
