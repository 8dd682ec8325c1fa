// Every migration in order. Versions are applied once each, recorded in schema_migrations.
import { sql as initial } from './001-initial.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'initial', sql: initial }];
