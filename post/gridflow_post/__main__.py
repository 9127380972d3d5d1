"""python3 -m gridflow_post CMD RUN [options]"""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
