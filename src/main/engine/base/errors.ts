/// A failure that retrying cannot mend (a missing key, a request the provider refuses): the unit fails at once.
export class PermanentError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PermanentError'
  }
}
