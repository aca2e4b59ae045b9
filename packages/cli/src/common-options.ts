/** Options every command accepts. */
export interface CommonOptions {
  readonly workspace?: string;
  readonly config?: string;
}
