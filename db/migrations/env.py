"""alembic environment: runs on the engine db.migration hands over."""
from alembic import context

from db import models

config = context.config


def run_migrations_online():
    engine = config.attributes['engine']
    with engine.connect() as connection:
        context.configure(connection=connection,
                          target_metadata=models.Base.metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


run_migrations_online()
