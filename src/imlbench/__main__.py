from imlbench.cli import main

raise SystemExit(main())
