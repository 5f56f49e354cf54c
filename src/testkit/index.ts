export * from './manifest-issue';
export * from './manifest-validator';
export * from './model';
export * from './secret-scan';
