import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { connectBridge } from './bridge'
import { stageStyles } from './stageStyles'
import './styles.css'

// The stages' and verdicts' colours, from the vocabulary: after styles.css, which draws with them.
const stages = document.createElement('style')
stages.textContent = stageStyles()
document.head.append(stages)

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element.')
createRoot(root).render(
  <StrictMode>
    <App api={connectBridge()} />
  </StrictMode>,
)
