import { ApiError } from '../../../shared/errors'
import { InsufficientCreditsError, type Ledger } from '../store/ledger'

/// Charges `amount` credits for `what` ("This check", "Deep research") inside the caller's transaction, or
/// refuses with 402, naming the price and the balance.
export async function chargeOrRefuse(
  ledger: Ledger,
  organizationId: string,
  amount: number,
  subject: string,
  at: string,
  what: string,
): Promise<void> {
  try {
    await ledger.record(organizationId, 'charge', amount, subject, at)
  } catch (error) {
    if (!(error instanceof InsufficientCreditsError)) throw error
    throw new ApiError(
      'insufficient_credits',
      `${what} costs ${error.amount} ${error.amount === 1 ? 'credit' : 'credits'}; the balance is ${error.balance}.`,
    )
  }
}
