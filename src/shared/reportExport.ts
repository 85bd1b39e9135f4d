// The JSON export's schema, apart from schemas.ts: it names every verdict of the vocabulary, which reads its
// types from schemas.ts.
import { z } from 'zod'
import { Report } from './schemas'
import { EXPORT_VERDICTS, type ExportVerdict } from './vocabulary'

/// A claim that needs the editor's attention, as the JSON export lists it: the same claims, reason and
/// correction as the "Needs attention" list of the other formats.
export const AttentionItem = z
  .object({
    claimId: z.string(),
    /// Why, in words: what a tier found, or why the check could not decide it.
    why: z.string(),
    /// The words that would replace the claim, as a tier suggested them; null when none did.
    correction: z.string().nullable(),
  })
  .meta({ id: 'AttentionItem' })
export type AttentionItem = z.infer<typeof AttentionItem>

/// The JSON export (an extension): the report, its summary counting each claim once by the verdict the
/// exported report shows it with (`verdicts` counts each tier's) and the spelling fixes the other formats make,
/// and the claims that need attention.
export const ReportExport = Report.extend({
  summary: Report.shape.summary.extend({
    headlineVerdicts: z.record(z.enum(EXPORT_VERDICTS as [ExportVerdict, ...ExportVerdict[]]), z.int()),
    needAttention: z.int(),
    /// Misspelt words the other formats correct (a tracked change in Word, marked in the HTML and PDF article):
    /// a spelling finding whose first suggestion is clearly the word meant, not in capitals (a name), nor in a
    /// claim whose correction covers it.
    spellingFixes: z.int(),
  }),
  attention: z.array(AttentionItem),
}).meta({ id: 'ReportExport' })
export type ReportExport = z.infer<typeof ReportExport>
