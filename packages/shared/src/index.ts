export * from './constants.ts';
export * from './enums.ts';
export * from './messages.ts';
export * from './schemas/common.ts';
export * from './schemas/targeting.ts';
export * from './schemas/team.ts';
export * from './schemas/users.ts';
export * from './schemas/workspace.ts';
