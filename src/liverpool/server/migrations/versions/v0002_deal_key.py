"""Fair deals: a table's secret deal key (hex of 32 bytes from the OS's
CSPRNG). Tables made before it keep their seed (``deal_key`` NULL).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("deal_key", sa.String(128)))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("deal_key")
