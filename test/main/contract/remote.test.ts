import { remoteSubject } from './subjects'
import { contractSuite } from './suite'

// The same contract against RemoteService talking to a `factdesk serve` child process over HTTP.
contractSuite('RemoteService and factdesk serve', remoteSubject)
