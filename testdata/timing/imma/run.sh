bash record.sh
