"""Chat at the table: each line said, in order (its ``id``), with the table's
number of events when it was said (where a replay shows it).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("events", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("text", sa.String(1000)),
        sa.Column("reaction", sa.String(16)),
    )
    op.create_index("chat_by_table", "chat", ["code", "id"])


def downgrade() -> None:
    op.drop_index("chat_by_table", table_name="chat")
    op.drop_table("chat")
