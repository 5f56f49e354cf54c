export * from './manifest-issue';
export * from './manifest-validator';
