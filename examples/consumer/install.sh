npm init -y
npm install cdk8s-gitops-platform cdk8s@^2.70.0 constructs@^10.4.2 cdk8s-plus-28@^2.5.6
npm install --save-dev tsx vitest
