import { embeddedSubject } from './subjects'
import { contractSuite } from './suite'

// The contract against the engine in this process, through the operations the desktop dispatch calls.
contractSuite('embedded engine', embeddedSubject)
