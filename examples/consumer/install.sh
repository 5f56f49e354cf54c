npm init -y
npm install cdk8s-gitops-platform cdk8s@^2.70.0 constructs@^10.4.2 cdk8s-plus-28@^2.5.6
npm install --save-dev cdk8s-cli tsx typescript@5.9.x @types/node@^20 jest@^29 ts-jest@^29 @types/jest@^29
