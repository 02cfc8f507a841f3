"""``python -m volapi.volume.transitions`` prints doc/transitions.md."""
import sys

from volapi.volume.transitions import doc

sys.stdout.write(doc.markdown())
