export * from './constants.ts';
export * from './enums.ts';
export * from './messages.ts';
export * from './schemas/common.ts';
export * from './schemas/users.ts';
