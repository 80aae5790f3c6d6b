"""A dashboard imports one view; its package must not load the sibling views (their charts, figures,
studies): a cold kernel would pay for them at every page open. Checked in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("package,view,module,sibling", [
    ("toolkit.widgets.crew", "MissionView", "mission", "sonar"),
    ("toolkit.widgets.deepblue", "GemBagView", "gem_bag", "play"),
    ("toolkit.widgets.pirats", "ScoringView", "scoring", "game"),
    ("toolkit.widgets.tranquility", "GameView", "game", "strategies"),
])
def test_importing_a_view_loads_only_its_module(package, view, module, sibling):
    code = (f"import sys\nfrom {package} import {view}\n"
            f"assert {view}.__module__ == '{package}.{module}', {view}.__module__\n"
            f"print('{package}.{sibling}' in sys.modules)\n"
            f"import {package} as p\nassert '{view}' in dir(p)\n"
            f"try:\n    p.NoSuchView\nexcept AttributeError as e:\n    assert 'NoSuchView' in str(e)\n"
            f"else:\n    raise SystemExit('no AttributeError')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
