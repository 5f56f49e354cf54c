export * from './verification-arg';
export * from './verification';
