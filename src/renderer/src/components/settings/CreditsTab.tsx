import { useEffect, useId, useState, type FormEvent, type JSX } from 'react'
import { TIERS, type Credits } from '../../../../shared/schemas'
import { useAccount } from '../../state/account'
import { counted } from '../../../../shared/counted'
import { Problem, useRequest, type TabProps } from './common'

const PRICE_NAMES = { t1: 't1 spelling and grammar', t2: 't2 model panel', t3: 't3 web research' } as const

/// Credits: the prices, the balance, and adding credits to this computer's organization.
export function CreditsTab({ api }: TabProps): JSX.Element {
  const [credits, setCredits] = useState<Credits | null>(null)
  const [amount, setAmount] = useState('1000')
  const loading = useRequest()
  const granting = useRequest()
  const field = useId()
  const { run } = loading

  useEffect(() => {
    void run(() => api.credits()).then((answer) => answer && setCredits(answer))
  }, [api, run])

  const whole = /^\d+$/.test(amount.trim()) ? Number(amount.trim()) : NaN
  const valid = Number.isSafeInteger(whole) && whole > 0
  const grant = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    if (!valid) return
    const answer = await granting.run(() => api.grantCredits({ amount: whole }))
    if (answer) {
      setCredits(answer)
      // The toolbar and the status bar show the new balance too.
      void useAccount.getState().load(api)
    }
  }

  return (
    <div className="settings-section">
      <Problem text={loading.error} />
      {credits && (
        <>
          <p className="settings-balance" role="status">
            Balance: <strong>{counted(credits.balance, 'credit')}</strong>
          </p>
          <table className="price-table">
            <caption className="muted">Prices</caption>
            <tbody>
              {TIERS.map((tier) => (
                <tr key={tier}>
                  <th scope="row">{PRICE_NAMES[tier]}</th>
                  <td>{counted(credits.prices[tier], 'credit')} per claim</td>
                </tr>
              ))}
              <tr>
                <th scope="row">Deep research</th>
                <td>{counted(credits.prices.research, 'credit')} per run</td>
              </tr>
            </tbody>
          </table>
        </>
      )}
      <form className="settings-form inline-form" onSubmit={(event) => void grant(event)}>
        <label htmlFor={`${field}-amount`}>Credits to add</label>
        <input
          id={`${field}-amount`}
          inputMode="numeric"
          value={amount}
          aria-invalid={!valid}
          aria-describedby={valid ? undefined : `${field}-amount-problem`}
          onChange={(event) => setAmount(event.target.value)}
        />
        <button type="submit" className="button primary" disabled={!valid || granting.busy}>
          Add credits
        </button>
      </form>
      {!valid && (
        <p id={`${field}-amount-problem`} className="settings-problem">
          Enter a whole number of credits, more than zero.
        </p>
      )}
      <Problem text={granting.error} />
    </div>
  )
}
