/// A set that cannot measure anything as configured (verification without models): it says why, and
/// `npm run eval` exits 0.
export class NotConfigured extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NotConfigured'
  }
}
