"""`python -m agentls.cli` — the same as the `agentls` console script."""

from agentls.cli import main

raise SystemExit(main())
