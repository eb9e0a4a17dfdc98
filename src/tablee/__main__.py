from tablee.cli import main

raise SystemExit(main())
